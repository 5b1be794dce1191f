/**
 * True when `a` becomes `b` by at most one edit: inserting, deleting or replacing one letter, or
 * swapping two neighbours ("cancle" / "cancel"). Matching by shared one-letter deletions alone also
 * pairs words two edits apart ("learn" / "clean" both lose a letter to "lean"); this check rules them out.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

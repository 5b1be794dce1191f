/**
 * The `status` of an accepted auto_dialog message: queued (a reply will be POSTed to send_url),
 * recorded (none is due), suppressed (auto reply is stopped or paused).
 */
export const AUTO_DIALOG_STATUSES = ['queued', 'recorded', 'suppressed'] as const;
export type AutoDialogStatus = (typeof AUTO_DIALOG_STATUSES)[number];

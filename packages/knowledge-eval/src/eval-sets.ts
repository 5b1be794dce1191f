import { fileURLToPath } from 'node:url';

/**
 * The evaluation sets (cases/): the bundled FAQ's calibration and test halves, and four independently
 * written shop FAQs with their cases (cases/independent). This file is compiled to dist/src, hence ../../cases.
 */
export const EVAL_CASES_DIR: string = fileURLToPath(new URL('../../cases/', import.meta.url));

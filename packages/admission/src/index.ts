export * from './admission.js';
export { ADMISSION_SCRIPTS } from './admission.lua.js';

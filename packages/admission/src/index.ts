export {
  createAdmission,
  type StoredAnswer,
  type AdmissionResult,
  type AdmitInput,
  type AnswerOutcome,
  type Admission,
} from './admission.js';
export { ADMISSION_SCRIPTS } from './admission.lua.js';

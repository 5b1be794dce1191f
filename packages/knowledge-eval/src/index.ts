export { parseEvalCases, type EvalCase } from './eval-cases.js';
export {
  ratio,
  evaluateKnowledge,
  measureMicrosPerReply,
  type LanguageCounts,
  type Confusion,
  type EvalReport,
} from './evaluate-knowledge.js';
export { calibrateThresholds, type Calibration } from './calibrate-thresholds.js';
export { measureRecall, formatRecallReport, type RecallCounts, type RecallReport } from './measure-recall.js';
export { formatEvalReport, formatCalibration } from './format-eval-report.js';
export { EVAL_CASES_DIR } from './eval-sets.js';
export { evaluateModel, formatModelReport, type ModelCounts, type ModelEvalReport } from './evaluate-model.js';
export { runModelEval, type ModelEvalOptions } from './run-model-eval.js';

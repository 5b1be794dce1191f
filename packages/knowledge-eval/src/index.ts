export * from './eval-cases.js';
export * from './evaluate-knowledge.js';
export * from './calibrate-thresholds.js';
export * from './measure-recall.js';
export * from './format-eval-report.js';
export * from './eval-sets.js';
export * from './evaluate-model.js';
export * from './run-model-eval.js';

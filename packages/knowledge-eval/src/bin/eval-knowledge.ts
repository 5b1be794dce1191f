import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  createKnowledgeResponder,
  DEFAULT_KNOWLEDGE_HISTORY_MESSAGES,
  EXAMPLE_KNOWLEDGE_FILE,
  loadKnowledgeBase,
} from '@dialog-relay/reply-engine';
import { calibrateThresholds } from '../calibrate-thresholds.js';
import { parseEvalCases } from '../eval-cases.js';
import { evaluateKnowledge, measureMicrosPerReply } from '../evaluate-knowledge.js';
import { formatCalibration, formatEvalReport } from '../format-eval-report.js';
import { formatRecallReport, measureRecall } from '../measure-recall.js';
import { runModelEval } from '../run-model-eval.js';

const print = (text: string): void => void process.stdout.write(`${text}\n`);
const printError = (text: string): void => void process.stderr.write(`${text}\n`);

const USAGE = `usage: npm run eval:knowledge -- [--file FAQ.yaml] --cases CASES.jsonl [--calibrate [--wrong-cost N]] [--recall K] [--json] [--confusions N]
       npm run eval:knowledge -- --engine openai [--file FAQ.yaml] --cases CASES.jsonl [--concurrency N] [--json]
  --file        knowledge file (default: the bundled example FAQ; with --engine openai: KNOWLEDGE_FILE, else the example)
  --engine      knowledge (default: the offline engine) or openai: the grounded model configured by OPENAI_BASE_URL,
                OPENAI_API_KEY, OPENAI_MODEL … as the service reads them; right = the reply's sources[0]
  --concurrency with --engine openai: model calls at once (default 4)
  --cases       JSON Lines, one case a line: {"text": "…", "expected": "entry-id" or null, "lang": "en"}
  --calibrate   also search the confidence thresholds that fit these cases best
  --wrong-cost  for --calibrate: how many right answers one wrong answer costs (default 2)
  --recall      also print, per language, how often the right entry is among the K retrieved (what a model prompt would hold)
  --json        print the report as JSON
  --confusions  how many confusions to list (default 15)`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      cases: { type: 'string' },
      calibrate: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      confusions: { type: 'string', default: '15' },
      'wrong-cost': { type: 'string', default: '2' },
      engine: { type: 'string', default: 'knowledge' },
      concurrency: { type: 'string', default: '4' },
      recall: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || values.cases === undefined) {
    printError(USAGE);
    return values.help ? 0 : 64;
  }
  if (values.engine !== 'knowledge' && values.engine !== 'openai') {
    printError(`--engine must be knowledge or openai\n${USAGE}`);
    return 64;
  }
  const recallK = values.recall === undefined ? undefined : Number(values.recall);
  if (recallK !== undefined && !(Number.isInteger(recallK) && recallK >= 1)) {
    printError('--recall needs a whole number of entries, 1 or more');
    return 64;
  }
  const cases = parseEvalCases(await readFile(values.cases, 'utf8'));
  if (values.engine === 'openai') {
    return runModelEval(
      { file: values.file, cases, json: values.json, concurrency: Number(values.concurrency) },
      process.env,
      print,
      printError,
    );
  }
  const kb = await loadKnowledgeBase(values.file ?? EXAMPLE_KNOWLEDGE_FILE);
  const responder = createKnowledgeResponder(kb);
  const report = evaluateKnowledge(responder, cases);
  const microsPerReply = measureMicrosPerReply(responder, cases);
  // the service passes the knowledge engine a conversation's two earlier customer messages (its default)
  const microsPerReplyInConversation = measureMicrosPerReply(responder, cases, undefined, { history: DEFAULT_KNOWLEDGE_HISTORY_MESSAGES });
  const calibration = values.calibrate ? calibrateThresholds(responder, cases, Number(values['wrong-cost'])) : undefined;
  const recall = recallK === undefined ? undefined : measureRecall(responder, cases, recallK);
  if (values.json) {
    print(
      JSON.stringify(
        {
          ...report,
          microsPerReply,
          microsPerReplyInConversation,
          thresholds: kb.thresholds,
          entries: kb.entries.length,
          calibration,
          recall,
        },
        null,
        2,
      ),
    );
  } else {
    const { minScore, minMargin, minCoverage } = kb.thresholds;
    print(
      `${kb.entries.length} entries; confidence thresholds min_score ${minScore}, min_margin ${minMargin}, min_coverage ${minCoverage}`,
    );
    print(formatEvalReport(report, { microsPerReply, microsPerReplyInConversation, confusions: Number(values.confusions) }));
    if (recall) print(`\n${formatRecallReport(recall)}`);
    if (calibration) print(`\n${formatCalibration(calibration)}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    printError(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);

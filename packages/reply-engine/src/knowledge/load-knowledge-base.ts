import { ConfigError } from '@dialog-relay/config';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseKnowledgeBase, type KnowledgeBase, type KnowledgeFormat } from './knowledge-base.js';

/**
 * A knowledge file that cannot be used; the message is `KNOWLEDGE_FILE: <file>: <problem>`. It is bad
 * configuration: the default file's stops start-up with exit 78, like any ConfigError.
 */
export class KnowledgeFileError extends ConfigError {
  constructor(
    readonly file: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super('KNOWLEDGE_FILE', `${file}: ${problem}`);
    if (options?.cause !== undefined) this.cause = options.cause;
    this.name = 'KnowledgeFileError';
  }
}

function formatOf(filePath: string): KnowledgeFormat {
  const extension = extname(filePath).toLowerCase();
  if (extension === '.yaml' || extension === '.yml') return 'yaml';
  if (extension === '.json') return 'json';
  throw new KnowledgeFileError(filePath, `unsupported extension "${extension}" (use .yaml, .yml or .json)`);
}

/** Reads a knowledge file (.yaml, .yml or .json); throws KnowledgeFileError naming the file and the problem. */
export async function loadKnowledgeBase(filePath: string): Promise<KnowledgeBase> {
  const format = formatOf(filePath);
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KnowledgeFileError(filePath, `cannot read: ${reason}`, { cause: error });
  }
  try {
    return parseKnowledgeBase(text, format);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KnowledgeFileError(filePath, reason.replace(/^KNOWLEDGE_FILE: /, ''), { cause: error });
  }
}

import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseKnowledgeBase, type KnowledgeBase, type KnowledgeFormat } from './knowledge-base.js';

function formatOf(filePath: string): KnowledgeFormat {
  const extension = extname(filePath).toLowerCase();
  if (extension === '.yaml' || extension === '.yml') return 'yaml';
  if (extension === '.json') return 'json';
  throw new Error(`KNOWLEDGE_FILE: ${filePath}: unsupported extension "${extension}" (use .yaml, .yml or .json)`);
}

/** Reads a knowledge file (.yaml, .yml or .json); errors start with `KNOWLEDGE_FILE:` and name the file. */
export async function loadKnowledgeBase(filePath: string): Promise<KnowledgeBase> {
  const format = formatOf(filePath);
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`KNOWLEDGE_FILE: ${filePath}: cannot read: ${reason}`, { cause: error });
  }
  try {
    return parseKnowledgeBase(text, format);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(reason.replace(/^KNOWLEDGE_FILE: /, `KNOWLEDGE_FILE: ${filePath}: `), { cause: error });
  }
}

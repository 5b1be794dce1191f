import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the shipped example FAQ (knowledge/example-faq.yaml, fictional shop
 * "Northwind Goods"). This file is compiled to dist/src, hence ../../knowledge.
 */
export const EXAMPLE_KNOWLEDGE_FILE: string = fileURLToPath(new URL('../../knowledge/example-faq.yaml', import.meta.url));

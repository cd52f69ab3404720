/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VECTORS_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../crates/domain/cart-pricing/tests/vectors',
);

/**
 * A file of the test vectors the Rust and the Vitest tests share
 * (crates/domain/cart-pricing/tests/vectors): the same inputs and exact outputs on both sides.
 */
export function readSharedVectors<T>(
  file: 'fees.json' | 'stock-messages.json' | 'currency.json',
): T {
  return JSON.parse(readFileSync(join(VECTORS_DIR, file), 'utf8')) as T;
}

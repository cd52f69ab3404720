/// <reference types="node" />
import { readFileSync } from 'node:fs';

import { DOCUMENT_PATH, generateApiTypes, TYPES_PATH } from './generate-api-types.mjs';

describe('the generated API types', () => {
  it('are what openapi-typescript makes of the checked-in OpenAPI document (else run `just api-types`)', async () => {
    const expected = await generateApiTypes(readFileSync(DOCUMENT_PATH, 'utf8'));
    const checkedIn = readFileSync(TYPES_PATH, 'utf8');
    expect(
      checkedIn === expected,
      'src/types/api.gen.ts is stale: run `just api-types` and commit it',
    ).toBe(true);
  });
});

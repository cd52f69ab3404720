/** frontend/openapi.json: the server's OpenAPI document, as `garden-shop openapi` prints it. */
export const DOCUMENT_PATH: string;
/** src/types/api.gen.ts: the types openapi-typescript generates from it. */
export const TYPES_PATH: string;
/** The TypeScript for one OpenAPI document (its JSON text), as `just api-types` writes it. */
export function generateApiTypes(documentText: string): Promise<string>;

import { randomUUID } from 'node:crypto';
import { ApiClientsService, ClientSettings } from '../../src/auth/api-clients.service.js';
import { allScopes } from '../../src/common/http/scopes.js';
import type { TestApp } from './test-app.js';

export interface TestClient {
  id: string;
  key: string;
  secret: string;
  headers: Record<string, string>;
}

/** Issues a client through the real service (hash stored, secret returned once). */
export async function createClient(t: TestApp, settings: ClientSettings = {}): Promise<TestClient> {
  const issued = await t.app
    .get(ApiClientsService)
    .create(`test-${randomUUID()}`, { scopes: allScopes(), ...settings });
  return {
    id: issued.client.id,
    key: issued.key,
    secret: issued.secret,
    headers: { 'X-API-Key': issued.key, 'X-API-Secret': issued.secret },
  };
}

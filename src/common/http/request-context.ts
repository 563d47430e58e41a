import type { Request } from 'express';

/** What the authentication guard learns about the caller; later layers read it from here. */
export interface AuthenticatedClient {
  id: string;
  name: string;
  scopes: readonly string[];
  rateLimitPerMinute: number;
  cuirUniqueness: boolean;
  cuirRules: boolean;
  /** The client's own CUIR platform id; null: the service's CUIR_PLATFORM_ID. */
  cuirPlatformId: string | null;
  /** A health authority's jurisdictions (SPEC 9.3); empty for every other client. */
  jurisdicciones: readonly string[];
}

/** The per-request state our middlewares and guards attach to Express's request. */
export interface RequestWithContext extends Request {
  /** The client's sane X-Request-Id, else serviceRequestId. */
  requestId: string;
  /** A UUID the service minted for this request, whatever the client sent. */
  serviceRequestId: string;
  /** The caller's sane X-Request-Id, else null; in the event log only once authenticated. */
  clientRequestId: string | null;
  startedAt: bigint;
  apiClient?: AuthenticatedClient;
  /** Aborted when the request's time is up or its client went away (request-scope.ts). */
  abort?: AbortController;
}

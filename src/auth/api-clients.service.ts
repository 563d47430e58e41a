import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { In } from 'typeorm';
import { SecretBox } from '../common/crypto/secret-box.js';
import { allScopes, isScope, knownScopes, Scope } from '../common/http/scopes.js';
import { InjectSettings } from '../config/inject-settings.js';
import { webhooksSettings, type WebhooksSettings } from '../webhooks/webhooks.slice.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import { isIndecJurisdiction } from '../common/indec-jurisdictions.js';
import { ApiClientEntity } from './api-client.entity.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { hashSecret, newClientKey, newClientSecret } from './credentials.js';
import { authSettings, type AuthSettings } from './auth.settings.js';

export interface ClientSettings {
  scopes?: Scope[];
  rateLimitPerMinute?: number;
  cuirUniqueness?: boolean;
  cuirRules?: boolean;
  /** 4 digits: the client's prescribing-platform id in its CUIRs; null: CUIR_PLATFORM_ID. */
  cuirPlatformId?: string | null;
  /** A health authority's INDEC jurisdictions (required with fiscalizacion:read, only with it). */
  jurisdicciones?: string[];
  /** A URL sets (or replaces) the webhook and issues a new signing secret; null removes it. */
  webhookUrl?: string | null;
}

/** What an operator sees of a client, never a secret or a hash; `webhook_secret` only once, when set. */
export type ClientView = ReturnType<typeof toView> & { webhook_secret?: string };

export interface IssuedCredentials {
  client: ClientView;
  key: string;
  secret: string;
}

const DEMO_CLIENT_NAME = 'demo';

/** Parses "all" or a comma list of scopes; refuses unknown ones by name. */
export function parseScopes(list: string): Scope[] {
  if (list.trim() === 'all') return allScopes();
  const scopes = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw refused(
      `Unknown scope(s): ${unknown.join(', ') || '(none given)'}; known: ${knownScopes().join(', ')}; or all (${allScopes().join(', ')})`,
    );
  }
  return [...new Set(scopes)] as Scope[];
}

/** The issuance rules of contract §2: create, list, update, rotate, revoke (the credentials tool). */
@Injectable()
export class ApiClientsService {
  private readonly webhookBox: SecretBox;

  constructor(
    private readonly clients: ApiClientsRepository,
    @InjectSettings(authSettings) private readonly settings: AuthSettings,
    @InjectSettings(webhooksSettings) private readonly webhooks: WebhooksSettings,
  ) {
    this.webhookBox = new SecretBox(settings.secretPepper, 'webhook-signing-secret');
  }

  async create(name: string, settings: ClientSettings): Promise<IssuedCredentials> {
    if (await this.clients.repo.findOneBy({ name, active: true })) {
      throw refused(`An active client named "${name}" already exists`);
    }
    const key = newClientKey();
    const secret = newClientSecret();
    const client = await this.clients.repo.save(
      this.clients.repo.create({
        name,
        key,
        secretHash: this.hash(key, secret),
        nextSecretHash: null,
        scopes: settings.scopes ?? [],
        rateLimitPerMinute: settings.rateLimitPerMinute ?? this.settings.defaultRateLimitPerMinute,
        cuirUniqueness: settings.cuirUniqueness ?? true,
        cuirRules: settings.cuirRules ?? false,
        cuirPlatformId: platformId(settings.cuirPlatformId) ?? null,
        jurisdicciones: authorityJurisdictions(
          settings.scopes ?? [],
          settings.jurisdicciones ?? [],
        ),
        active: true,
      }),
    );
    return { client: toView(client), key, secret };
  }

  async list(): Promise<ClientView[]> {
    return (await this.clients.repo.find({ order: { createdAt: 'ASC' } })).map(toView);
  }

  async update(ref: string, settings: ClientSettings): Promise<ClientView> {
    const client = await this.get(ref);
    const { scopes, rateLimitPerMinute, cuirUniqueness, cuirRules, cuirPlatformId } = settings;
    const given = { scopes, rateLimitPerMinute, cuirUniqueness, cuirRules };
    Object.assign(
      client,
      Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
    );
    client.jurisdicciones = authorityJurisdictions(
      client.scopes,
      settings.jurisdicciones ?? client.jurisdicciones,
    );
    if (cuirPlatformId !== undefined) client.cuirPlatformId = platformId(cuirPlatformId) ?? null;
    let webhookSecret: string | undefined;
    if (settings.webhookUrl === null) {
      client.webhookUrl = null;
      client.webhookSecretEnc = null;
    } else if (settings.webhookUrl !== undefined) {
      // Loaded here: the module also holds the sender (axios), which the credentials tool's
      // other commands (`clients list`) do not need; the app has loaded it already.
      const { webhookUrlProblem } = await import('../webhooks/webhooks.public.js');
      const problem = await webhookUrlProblem(settings.webhookUrl, this.webhooks);
      if (problem) throw refused(`Webhook URL refused: it ${problem}`, 'webhook_url', problem);
      webhookSecret = `whsec_${randomBytes(32).toString('base64url')}`;
      client.webhookUrl = settings.webhookUrl;
      client.webhookSecretEnc = this.webhookBox.seal(webhookSecret);
    }
    const view = toView(await this.clients.repo.save(client));
    return webhookSecret ? { ...view, webhook_secret: webhookSecret } : view;
  }

  /** Where and how to deliver this client's events, or null when it has no webhook. */
  async webhookTarget(clientId: string): Promise<{ url: string; secret: string } | null> {
    const client = await this.clients.findByIdOrKey(clientId);
    if (!client?.active || !client.webhookUrl || !client.webhookSecretEnc) return null;
    return { url: client.webhookUrl, secret: this.webhookBox.open(client.webhookSecretEnc) };
  }

  /** Display names of clients, for audit views. */
  async names(ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    const found = unique.length ? await this.clients.repo.findBy({ id: In(unique) }) : [];
    return new Map(found.map((c) => [c.id, c.name]));
  }

  /** Adds a second valid secret; both work until `finishRotation`. */
  async rotate(ref: string): Promise<IssuedCredentials> {
    const client = await this.get(ref);
    if (client.nextSecretHash) {
      throw refused('A rotation is already under way: finish it first (rotate --finish)');
    }
    const secret = newClientSecret();
    client.nextSecretHash = this.hash(client.key, secret);
    return { client: toView(await this.clients.repo.save(client)), key: client.key, secret };
  }

  /** Drops the old secret: only the one issued by `rotate` remains valid. */
  async finishRotation(ref: string): Promise<ClientView> {
    const client = await this.get(ref);
    if (!client.nextSecretHash) throw refused('No rotation is under way');
    client.secretHash = client.nextSecretHash;
    client.nextSecretHash = null;
    return toView(await this.clients.repo.save(client));
  }

  async revoke(ref: string): Promise<ClientView> {
    const client = await this.get(ref);
    client.active = false;
    client.revokedAt ??= new Date();
    return toView(await this.clients.repo.save(client));
  }

  /**
   * The embedded-mode demo client: created once with every scope, then left as the operator
   * keeps it (a revoked one is not replaced: null). A fresh secret at every start lets the
   * banner print working credentials.
   */
  async ensureDemoClient(): Promise<IssuedCredentials | null> {
    const existing = await this.clients.repo.findOneBy({ name: DEMO_CLIENT_NAME, active: true });
    if (!existing) {
      if (await this.clients.repo.existsBy({ name: DEMO_CLIENT_NAME })) return null;
      return this.create(DEMO_CLIENT_NAME, { scopes: allScopes() });
    }
    const secret = newClientSecret();
    existing.secretHash = this.hash(existing.key, secret);
    existing.nextSecretHash = null;
    return { client: toView(await this.clients.repo.save(existing)), key: existing.key, secret };
  }

  private async get(ref: string): Promise<ApiClientEntity> {
    const client = await this.clients.findByIdOrKey(ref);
    if (!client) throw notFound('API client');
    return client;
  }

  private hash(key: string, secret: string): string {
    return hashSecret(this.settings.secretPepper, key, secret);
  }
}

/** A CUIR platform id is exactly 4 digits (Res. MS 2214/2025 Annex IV); null clears it. */
function platformId(id: string | null | undefined): string | null | undefined {
  if (id === undefined || id === null) return id;
  if (!/^\d{4}$/.test(id)) {
    const issue = 'must be exactly 4 digits';
    throw refused(`The CUIR platform id ${issue}`, 'cuir_platform_id', issue);
  }
  return id;
}

/** The scope that makes a client a health authority (fiscalizacion's slice declares it). */
const AUTHORITY_SCOPE = 'fiscalizacion:read';

/**
 * SPEC 9.3: an authority (scope fiscalizacion:read) reads the jurisdictions it is given, and
 * must be given at least one; no other client has any. INDEC codes, each once, sorted.
 */
function authorityJurisdictions(scopes: readonly string[], given: readonly string[]): string[] {
  const codes = [...new Set(given)].sort();
  const unknown = codes.filter((c) => !isIndecJurisdiction(c));
  const problem = (message: string, issue: string) => refused(message, 'jurisdicciones', issue);
  if (unknown.length > 0)
    throw problem(
      `Unknown jurisdiction(s): ${unknown.join(', ')} (INDEC codes: 02 CABA, 06 Buenos Aires, …)`,
      'must be INDEC jurisdiction codes',
    );
  const authority = scopes.includes(AUTHORITY_SCOPE);
  if (authority && codes.length === 0)
    throw problem(
      `A client with ${AUTHORITY_SCOPE} needs its jurisdictions (--jurisdicciones 02,06)`,
      `is required with ${AUTHORITY_SCOPE}`,
    );
  if (!authority && codes.length > 0)
    throw problem(
      `Jurisdictions are only for a client with ${AUTHORITY_SCOPE} (--jurisdicciones none clears them)`,
      `applies only with ${AUTHORITY_SCOPE}`,
    );
  return codes;
}

/** 400 VALIDATION_FAILED, naming `field` when given. */
const refused = (message: string, field?: string, issue = '') =>
  new DomainError('VALIDATION_FAILED', message, field ? [{ field, issue }] : undefined);

function toView(c: ApiClientEntity) {
  return {
    id: c.id,
    name: c.name,
    key: c.key,
    scopes: c.scopes,
    rate_limit_per_minute: c.rateLimitPerMinute,
    cuir_uniqueness: c.cuirUniqueness,
    cuir_rules: c.cuirRules,
    cuir_platform_id: c.cuirPlatformId,
    jurisdicciones: c.jurisdicciones,
    active: c.active,
    rotating: c.nextSecretHash !== null,
    created_at: c.createdAt.toISOString(),
    last_used_at: c.lastUsedAt?.toISOString() ?? null,
    revoked_at: c.revokedAt?.toISOString() ?? null,
    webhook_url: c.webhookUrl,
  };
}

import { HttpService } from '@nestjs/axios';
import { Injectable } from '@nestjs/common';
import { AxiosError } from 'axios';
import { lookup as dnsLookup } from 'node:dns/promises';
import { firstValueFrom } from 'rxjs';
import { InjectSettings } from '../config/inject-settings.js';
import { webhooksSettings } from './webhooks.settings.js';
import type { WebhooksSettings } from './webhooks.settings.js';
import { signatureHeader } from './webhook-signer.js';
import { isPrivateAddress, webhookUrlProblem } from './webhook-url-policy.js';

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export type DeliveryResult = { ok: true; status: number } | { ok: false; reason: string };

/**
 * POSTs one signed event. The URL is checked again at delivery and the connection refuses a
 * private address even if DNS changed since registration (no rebinding into our network).
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly http: HttpService,
    @InjectSettings(webhooksSettings) private readonly settings: WebhooksSettings,
  ) {}

  async deliver(target: WebhookTarget, event: WebhookEvent): Promise<DeliveryResult> {
    const problem = await webhookUrlProblem(target.url, this.settings);
    if (problem) return { ok: false, reason: `webhook URL ${problem}` };
    const body = JSON.stringify(event);
    const { allowPrivate } = this.settings;
    try {
      const res = await firstValueFrom(
        this.http.post(target.url, body, {
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'prescription-registry-webhooks/1',
            'X-Event-Id': event.id,
            'X-Event-Type': event.type,
            'X-Signature': signatureHeader(target.secret, body, Math.floor(Date.now() / 1000)),
          },
          timeout: this.settings.timeoutMs,
          maxRedirects: 0,
          validateStatus: () => true,
          transformRequest: [(data: unknown) => data],
          lookup: async (hostname: string) => {
            const { address, family } = await dnsLookup(hostname);
            if (!allowPrivate && isPrivateAddress(address))
              throw new Error('refused: private address');
            return [address, family === 6 ? 6 : 4] as [string, 4 | 6];
          },
        }),
      );
      return res.status >= 200 && res.status < 300
        ? { ok: true, status: res.status }
        : { ok: false, reason: `HTTP ${res.status}` };
    } catch (err) {
      return {
        ok: false,
        reason: err instanceof AxiosError ? (err.code ?? err.message) : 'delivery error',
      };
    }
  }
}

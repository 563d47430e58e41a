import { Documented } from '../config/setting-docs.js';
import { BoolSetting, IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class WebhooksVariables {
  @Documented('allow private/loopback webhook targets', {
    default: false,
    env: 'allow private/loopback/link-local targets (tests, on-premises receivers)',
  })
  @BoolSetting()
  WEBHOOK_ALLOW_PRIVATE?: boolean;
  @Documented('webhook delivery: timeout per attempt', { default: 5000 })
  @IntSetting(100, 60000)
  WEBHOOK_TIMEOUT_MS?: number;
  @Documented('webhook delivery: attempts', { default: 8 })
  @IntSetting(1, 50)
  WEBHOOK_MAX_ATTEMPTS?: number;
  @Documented('webhook delivery: first retry delay', {
    default: 10,
    env: 'webhook delivery: first retry delay, doubled per attempt (pg-boss backoff)',
  })
  @IntSetting(1, 3600)
  WEBHOOK_RETRY_DELAY_SECONDS?: number;
}

export const webhooksSettings = defineSettings(
  'webhooks',
  WebhooksVariables,
  (v, core) => ({
    requireHttps: !['development', 'test'].includes(core.nodeEnv),
    allowPrivate: v.WEBHOOK_ALLOW_PRIVATE ?? false,
    timeoutMs: v.WEBHOOK_TIMEOUT_MS ?? 5000,
    maxAttempts: v.WEBHOOK_MAX_ATTEMPTS ?? 8,
    retryDelaySeconds: v.WEBHOOK_RETRY_DELAY_SECONDS ?? 10,
  }),
  { title: 'Webhooks' },
);

export type WebhooksSettings = SettingsOf<typeof webhooksSettings>;

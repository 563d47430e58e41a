import type { ModuleSlice } from '../common/module-slice.js';
import { BoolSetting, IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class WebhooksVariables {
  @BoolSetting() WEBHOOK_ALLOW_PRIVATE?: boolean;
  @IntSetting(100, 60000) WEBHOOK_TIMEOUT_MS?: number;
  @IntSetting(1, 50) WEBHOOK_MAX_ATTEMPTS?: number;
  @IntSetting(1, 3600) WEBHOOK_RETRY_DELAY_SECONDS?: number;
}

export const webhooksSettings = defineSettings('webhooks', WebhooksVariables, (v, core) => ({
  /** https targets outside development and tests. */
  requireHttps: !['development', 'test'].includes(core.nodeEnv),
  /** Allow private, loopback and link-local targets (tests, on-premises receivers). */
  allowPrivate: v.WEBHOOK_ALLOW_PRIVATE ?? false,
  timeoutMs: v.WEBHOOK_TIMEOUT_MS ?? 5000,
  maxAttempts: v.WEBHOOK_MAX_ATTEMPTS ?? 8,
  retryDelaySeconds: v.WEBHOOK_RETRY_DELAY_SECONDS ?? 10,
}));

export type WebhooksSettings = SettingsOf<typeof webhooksSettings>;

/** Signed event delivery to clients' webhook URLs. */
export const webhooksSlice: ModuleSlice = { name: 'webhooks', settings: [webhooksSettings] };

import { defineSlice } from '../common/module-slice.js';
import { webhooksSettings } from './webhooks.settings.js';

// Other modules (auth, recetas) read these settings; the slice is the face they reach them by.
export { webhooksSettings, type WebhooksSettings } from './webhooks.settings.js';

/** Signed event delivery to clients' webhook URLs. Its Nest module is imported by others. */
export const webhooksSlice = defineSlice({ name: 'webhooks', settings: [webhooksSettings] });

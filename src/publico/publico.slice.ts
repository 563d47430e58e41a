import { defineSlice } from '../common/module-slice.js';
import { PublicoModule } from './publico.module.js';
import { publicoSettings } from './publico.settings.js';

/** The public verification behind the printed QR (contract §9.4). */
export const publicoSlice = defineSlice({
  name: 'publico',
  module: PublicoModule,
  settings: [publicoSettings],
  tags: {
    publico:
      'The public verification behind the printed QR: no credentials, a signed link, never the patient.',
  },
  operationIds: { 'GET /r/{cuir}': 'verificarRecetaPublica' },
});

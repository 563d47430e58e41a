import { defineSlice } from '../common/module-slice.js';
import { ministerioSettings } from './ministerio.settings.js';

/** The ministry's pointer API (contract §4); its Nest module is imported by recetas. */
export const ministerioSlice = defineSlice({ name: 'ministerio', settings: [ministerioSettings] });

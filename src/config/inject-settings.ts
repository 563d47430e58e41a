import { Inject } from '@nestjs/common';
import type { SettingsSlice } from './settings.js';

/** Injects a module's validated settings (apart from settings.ts, which loads no Nest). */
export const InjectSettings = (slice: SettingsSlice<unknown>) => Inject(slice.token);

import { Module } from '@nestjs/common';
import { EnlacesPublicos } from './enlaces-publicos.service.js';

/**
 * The link builder alone, for the modules that hand links out (the ministry's pointer, the
 * printable document) without depending on the page that answers them.
 */
@Module({ providers: [EnlacesPublicos], exports: [EnlacesPublicos] })
export class EnlacesPublicosModule {}

import { Module } from '@nestjs/common';
import { EnlacesPublicos } from './enlaces-publicos.service.js';

/** The link builder alone, for modules that hand links out without the page that answers them. */
@Module({ providers: [EnlacesPublicos], exports: [EnlacesPublicos] })
export class EnlacesPublicosModule {}

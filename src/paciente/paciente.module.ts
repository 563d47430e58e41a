import { Module } from '@nestjs/common';
import { AuditoriaModule } from '../auditoria/auditoria.module.js';
import { AuthModule } from '../auth/auth.module.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { EnlacesPublicosModule } from '../publico/enlaces-publicos.module.js';
import { ProfesionalModule } from '../profesional/profesional.module.js';
import { RecetasModule } from '../recetas/recetas.module.js';
import { CitizenTokenGuard } from './citizen-token.guard.js';
import { CitizenTokenVerifier } from './citizen-token.verifier.js';
import { DocumentoController, PacienteController } from './paciente.controller.js';
import { PacienteService } from './paciente.service.js';
import { pacienteSettings, type PacienteSettings } from './paciente.settings.js';

/** The citizen's access by a Mi Argentina token, and the printable prescription (contract §8). */
@Module({
  imports: [AuditoriaModule, AuthModule, EnlacesPublicosModule, ProfesionalModule, RecetasModule],
  controllers: [DocumentoController, PacienteController],
  providers: [
    PacienteService,
    CitizenTokenGuard,
    {
      provide: CitizenTokenVerifier,
      inject: [pacienteSettings.token, APP_CONFIG],
      useFactory: (s: PacienteSettings, config: AppConfig) =>
        new CitizenTokenVerifier({
          // Unset only outside production without the sandbox: every token is then refused
          // as unverifiable (500 UPSTREAM_UNAVAILABLE), and the start logged why.
          jwksUrl: s.jwksUrl ?? 'http://127.0.0.1:9/jwks-not-configured',
          issuer: s.issuer ?? 'not-configured',
          audience: s.audience,
          maxLifetimeSeconds: s.maxLifetimeSeconds,
          timeoutMs: config.resilience.timeoutMs,
        }),
    },
  ],
})
export class PacienteModule {}

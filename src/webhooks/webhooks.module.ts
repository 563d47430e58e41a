import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { WebhookSender } from './webhook-sender.js';

/** Signed webhook delivery with SSRF protection; what to send and when is the caller's. */
@Module({ imports: [HttpModule], providers: [WebhookSender], exports: [WebhookSender] })
export class WebhooksModule {}

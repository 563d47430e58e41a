import { SetMetadata } from '@nestjs/common';

export const RAW_RESPONSE = 'raw-response';

/** Marks a controller whose answers are not wrapped in the success envelope (health, metrics). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

import { z } from 'zod';
import { DEVICE_PLATFORMS } from '@guest/db/schema';

export const DeviceRequest = z
  .object({
    device_id: z.string().min(1).max(200).meta({ description: "The app installation's own stable id." }),
    platform: z.enum(DEVICE_PLATFORMS),
    push_permission: z.boolean().meta({ description: 'Whether this device lets the app show pushes.' }),
    push_token: z.string().min(1).max(4096).nullable().optional().meta({ description: 'FCM/APNs/Web Push token.' }),
    app_version: z.string().max(50).nullable().optional(),
  })
  .meta({ id: 'DeviceRequest' });

export const DeviceResponse = z
  .object({
    id: z.uuid(),
    device_id: z.string(),
    platform: z.enum(DEVICE_PLATFORMS),
    push_permission: z.boolean(),
    has_push_token: z.boolean(),
    session_id: z
      .uuid()
      .nullable()
      .meta({ description: 'The session the device is signed in with; pushes go there only while it is open.' }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'DeviceResponse' });

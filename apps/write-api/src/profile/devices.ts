import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { DEVICE_PLATFORMS } from '@guest/db/schema';

const { devices } = schema;

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

/** Registers or updates one device of the account (by its `device_id`), bound to the current session. */
export async function upsertDevice(
  db: Db,
  accountId: string,
  sessionId: string,
  body: z.infer<typeof DeviceRequest>,
): Promise<z.infer<typeof DeviceResponse>> {
  const values = {
    accountId,
    deviceId: body.device_id,
    sessionId,
    platform: body.platform,
    pushPermitted: body.push_permission,
    appVersion: body.app_version ?? null,
    ...(body.push_token !== undefined ? { pushToken: body.push_token } : {}),
  };
  const [row] = await db
    .insert(devices)
    .values(values)
    .onConflictDoUpdate({ target: [devices.accountId, devices.deviceId], set: { ...values, updatedAt: sql`now()` } })
    .returning();
  const d = row!;
  return {
    id: d.id,
    device_id: d.deviceId,
    platform: d.platform,
    push_permission: d.pushPermitted,
    has_push_token: d.pushToken !== null,
    session_id: d.sessionId,
    updated_at: d.updatedAt.toISOString(),
  };
}

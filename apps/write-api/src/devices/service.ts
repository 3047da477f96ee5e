import type { z } from 'zod';
import { sql } from 'drizzle-orm';
import { schema } from '@guest/db';
import type { WriteDeps } from '../deps.ts';
import type { DeviceRequest, DeviceResponse } from './schemas.ts';

const { devices } = schema;

/** The devices of an account and their push permission (`/v1/devices`). */
export function createDevicesService({ database }: Pick<WriteDeps, 'database'>) {
  return {
    /** Registers or updates one device of the account (by its `device_id`), bound to the current session. */
    async register(
      caller: { accountId: string; sessionId: string },
      body: z.infer<typeof DeviceRequest>,
    ): Promise<z.infer<typeof DeviceResponse>> {
      const values = {
        accountId: caller.accountId,
        deviceId: body.device_id,
        sessionId: caller.sessionId,
        platform: body.platform,
        pushPermitted: body.push_permission,
        appVersion: body.app_version ?? null,
        ...(body.push_token !== undefined ? { pushToken: body.push_token } : {}),
      };
      const [row] = await database.db
        .insert(devices)
        .values(values)
        .onConflictDoUpdate({
          target: [devices.accountId, devices.deviceId],
          set: { ...values, updatedAt: sql`now()` },
        })
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
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;

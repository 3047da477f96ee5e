import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { schema, type Db } from '@guest/db';
import type { AuthContext } from '@guest/auth';
import type { SessionResponse } from './schemas.ts';

const { sessions } = schema;

/** The caller's sessions open at `now`, most recently used first. */
export async function listSessions(db: Db, auth: AuthContext, now: Date): Promise<z.input<typeof SessionResponse>[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.accountId, auth.accountId), isNull(sessions.closedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
  return rows.map((s) => ({
    id: s.id,
    current: s.id === auth.sessionId,
    created_at: s.createdAt.toISOString(),
    last_used_at: s.lastUsedAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    ip: s.ip,
    user_agent: s.userAgent,
  }));
}

import { z } from 'zod';

export const BadgesResponse = z
  .object({
    notifications: z.number().int().meta({ description: 'Unread notifications.' }),
    messages: z.number().int().meta({ description: "Unread messages across all of the guest's conversations." }),
    assistant: z.number().int().meta({ description: 'Assistant messages the guest has not yet seen.' }),
  })
  .meta({ id: 'BadgesResponse' });

export type Badges = z.infer<typeof BadgesResponse>;

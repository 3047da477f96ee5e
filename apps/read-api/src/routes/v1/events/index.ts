import type { FastifyInstance } from 'fastify';
import eventCategoriesRoute from './categories.ts';
import calendarRoute from './calendar.ts';
import upcomingRoute from './upcoming.ts';
import feedRoute from './feed.ts';
import eventsMapRoute from './map.ts';
import eventPageRoute from './slug.ts';

/** `/v1/events/*`: the static routes first, the `{slug}` page last. */
export default async function eventsRoutes(app: FastifyInstance) {
  await app.register(eventCategoriesRoute);
  await app.register(calendarRoute);
  await app.register(upcomingRoute);
  await app.register(feedRoute);
  await app.register(eventsMapRoute);
  await app.register(eventPageRoute);
}

import type { FastifyInstance } from 'fastify';
import type { ReadRouteOptions } from '../../../services.ts';
import eventCategoriesRoute from './categories.ts';
import calendarRoute from './calendar.ts';
import upcomingRoute from './upcoming.ts';
import feedRoute from './feed.ts';
import eventsMapRoute from './map.ts';
import eventPageRoute from './slug.ts';

/** `/v1/events/*`: the static routes first, the `{slug}` page last. */
export default async function eventsRoutes(app: FastifyInstance, opts: ReadRouteOptions) {
  await app.register(eventCategoriesRoute, opts);
  await app.register(calendarRoute, opts);
  await app.register(upcomingRoute, opts);
  await app.register(feedRoute, opts);
  await app.register(eventsMapRoute, opts);
  await app.register(eventPageRoute, opts);
}

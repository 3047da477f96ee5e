// One entry for drizzle-kit and the apps: every table of the database, by domain.
export * from './platform.ts';
export * from './catalog.ts';
export * from './accounts.ts';
export * from './favorites.ts';
export * from './profile.ts';
export * from './nodes.ts';

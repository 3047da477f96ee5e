import { registerScreen } from '../router.ts';
import { EventPage } from './events/event-page.tsx';
import { EventsScreen } from './events/events-screen.tsx';
import { SearchScreen } from './search/search-screen.tsx';
import { ListingPage } from './listing/listing-page.tsx';
import { SignIn } from './sign-in.tsx';

/** The screens of the page outside the account area (which registers its own in `account/index.ts`). */
registerScreen({ path: '/', component: SearchScreen, title: 'nav.map', nav: { label: 'nav.map', order: 10 } });
registerScreen({
  path: '/events',
  component: EventsScreen,
  title: 'events.title',
  nav: { label: 'nav.events', order: 20 },
});
registerScreen({ path: '/events/:slug', component: EventPage, title: 'events.title' });
registerScreen({ path: '/listings/:id', component: ListingPage, title: 'web.listing.title' });
registerScreen({ path: '/sign-in', component: SignIn, title: 'nav.sign_in' });

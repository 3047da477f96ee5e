import { registerHeaderItem } from '../header-items.ts';
import { registerScreen } from '../router.ts';
import { AccountHome } from './account-home.tsx';
import { DeleteRequest } from './delete-request.tsx';
import { ConfirmEmail, DeleteConfirm, ResetPassword } from './email-links.tsx';
import { FavoritesScreen } from './favorites.tsx';
import { FileView } from './file-view.tsx';
import { BadgesIndicator, SignUpLink } from './header.tsx';
import { PasswordScreen } from './password.tsx';
import { PreferencesScreen } from './preferences.tsx';
import { ProfileScreen } from './profile.tsx';
import { startRealtime } from './realtime.ts';
import { SessionsScreen } from './sessions.tsx';
import { SignUp } from './sign-up.tsx';
import { TransactionsScreen } from './transactions.tsx';
import './account.css';

/**
 * The account screens, all under `/account` (which the server answers with the page), the pages
 * the account mails link to among them; the header's badges and sign-up link; the socket.
 */
registerScreen({ path: '/account/sign-up', component: SignUp, title: 'account.signup.title' });
registerScreen({ path: '/account/confirm-email', component: ConfirmEmail, title: 'account.confirm.title' });
registerScreen({ path: '/account/reset-password', component: ResetPassword, title: 'account.reset.title' });
registerScreen({ path: '/account/delete-confirm', component: DeleteConfirm, title: 'account.delete.title' });
registerScreen({
  path: '/account',
  component: AccountHome,
  title: 'account.title',
  signedIn: true,
  nav: { label: 'nav.profile', order: 50 },
});
registerScreen({ path: '/account/profile', component: ProfileScreen, title: 'account.profile.title', signedIn: true });
registerScreen({
  path: '/account/password',
  component: PasswordScreen,
  title: 'profile.change_password',
  signedIn: true,
});
registerScreen({ path: '/account/sessions', component: SessionsScreen, title: 'profile.sessions', signedIn: true });
registerScreen({
  path: '/account/preferences',
  component: PreferencesScreen,
  title: 'account.prefs.title',
  signedIn: true,
});
registerScreen({
  path: '/account/favorites',
  component: FavoritesScreen,
  title: 'nav.favorites',
  signedIn: true,
  nav: { label: 'nav.favorites', order: 40 },
});
registerScreen({
  path: '/account/transactions',
  component: TransactionsScreen,
  title: 'account.tx.title',
  signedIn: true,
});
registerScreen({ path: '/account/files/:media_id', component: FileView, title: 'account.file.title', signedIn: true });
registerScreen({ path: '/account/delete', component: DeleteRequest, title: 'profile.delete_account', signedIn: true });

registerHeaderItem({ key: 'badges', order: 10, component: BadgesIndicator });
registerHeaderItem({ key: 'sign-up', order: 20, component: SignUpLink });

startRealtime();

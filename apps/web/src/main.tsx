import { render } from 'preact';
import { App } from './app.tsx';
import { loadConfig } from './config.ts';
import { followUrlLanguage, language, loadDictionary } from './i18n.ts';
import './screens/index.ts';
import './account/index.ts';
import './styles.css';

/** Start: the dictionary of the interface language and the server's config, then the shell. */
const root = document.getElementById('app')!;
try {
  await Promise.all([loadDictionary(language.get()), loadConfig()]);
} catch (err) {
  // Without a dictionary there is no text to show; say so in the one language the page has.
  root.textContent = `The service is not available (${String(err)}). Reload the page in a minute.`;
  throw err;
}
followUrlLanguage();
render(<App />, root);

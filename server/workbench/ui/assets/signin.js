// The sign-in page: the one-time secret rides in the address's fragment (never sent to the
// server in a request line); it is removed from the address bar first, then exchanged for the
// cookie session.
import { applyTheme } from './js/theme.js';

applyTheme();

const status = document.getElementById('signin-status');
const help = document.getElementById('signin-help');

async function signIn() {
  const secret = decodeURIComponent(window.location.hash.replace(/^#/, ''));
  history.replaceState(null, '', window.location.pathname);
  if (!secret) {
    fail('This address carries no sign-in link.');
    return;
  }
  try {
    const response = await fetch('/api/ui/signin', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-cortex-csrf': 'signin' },
      body: JSON.stringify({ link: secret }),
    });
    if (response.ok) {
      status.textContent = 'Signed in. Opening the workbench…';
      window.location.replace('/#/sessions');
      return;
    }
    fail('This sign-in link is wrong, expired or was used already.');
  } catch (e) {
    fail('The agent server did not answer. Is it running?');
  }
}

function fail(message) {
  status.textContent = message;
  status.classList.add('error-text');
  help.hidden = false;
}

signIn();

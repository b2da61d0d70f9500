import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { asProblem, fieldError, type Problem, problemBeyondFields } from '../../shared/problem';
import { ErrorMessage, Field } from '../../shared/ui';
import { useShop } from '../context';
import { mergeHeaders, nextPath, startSession } from '../sign-in';

export function SignIn() {
  const { api, session, cart } = useShop();
  const { query, route } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  useEffect(() => {
    document.title = 'Sign in';
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const signedIn = await ok(
        api.POST('/user/storefront/api/login/', { body: { email, password }, headers: mergeHeaders(cart) }),
      );
      startSession({ signedIn, session, cart });
      route(nextPath(query));
    } catch (err) {
      setProblem(asProblem(err));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Sign in</h1>
      <form onSubmit={submit}>
        <Field
          label="Email"
          type="email"
          autocomplete="email"
          required
          value={email}
          error={fieldError(problem, 'email')}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          error={fieldError(problem, 'password')}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <ErrorMessage problem={problemBeyondFields(problem, ['email', 'password'])} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        New here? <a href={`/sign-up${query.next ? `?next=${encodeURIComponent(query.next)}` : ''}`}>Sign up</a>
      </p>
    </>
  );
}

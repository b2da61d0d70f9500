import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { asProblem, fieldError, type Problem, problemBeyondFields } from '../../shared/problem';
import { ErrorMessage, Field } from '../../shared/ui';
import { useShop } from '../context';
import { mergeHeaders, nextPath, startSession } from '../sign-in';

export function SignUp() {
  const { api, session, cart } = useShop();
  const { query, route } = useLocation();
  const [form, setForm] = useState({ email: '', password: '', first_name: '', last_name: '' });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  useEffect(() => {
    document.title = 'Sign up';
  }, []);

  const set = (name: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) =>
    setForm((before) => ({ ...before, [name]: e.currentTarget.value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const signedIn = await ok(api.POST('/user/storefront/api/signup/', { body: form, headers: mergeHeaders(cart) }));
      startSession({ signedIn, session, cart });
      route(nextPath(query));
    } catch (err) {
      setProblem(asProblem(err));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Sign up</h1>
      <form onSubmit={submit}>
        <Field
          label="Email"
          type="email"
          autocomplete="email"
          required
          value={form.email}
          error={fieldError(problem, 'email')}
          onInput={set('email')}
        />
        <Field
          label="Password"
          type="password"
          autocomplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          value={form.password}
          error={fieldError(problem, 'password')}
          onInput={set('password')}
        />
        <Field
          label="First name"
          autocomplete="given-name"
          value={form.first_name}
          error={fieldError(problem, 'first_name')}
          onInput={set('first_name')}
        />
        <Field
          label="Last name"
          autocomplete="family-name"
          value={form.last_name}
          error={fieldError(problem, 'last_name')}
          onInput={set('last_name')}
        />
        <ErrorMessage problem={problemBeyondFields(problem, ['email', 'password', 'first_name', 'last_name'])} />
        <button type="submit" disabled={busy}>
          Sign up
        </button>
      </form>
      <p>
        Have an account? <a href={`/sign-in${query.next ? `?next=${encodeURIComponent(query.next)}` : ''}`}>Sign in</a>
      </p>
    </>
  );
}

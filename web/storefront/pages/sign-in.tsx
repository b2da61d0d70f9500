import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { fieldError, problemBeyondFields } from '../../shared/problem';
import { ErrorMessage, Field } from '../../shared/ui';
import { useShop } from '../context';
import { useSignIn } from '../sign-in';

export function SignIn() {
  const { api } = useShop();
  const { busy, problem, signIn, next } = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  useEffect(() => {
    document.title = 'Sign in';
  }, []);

  const submit = (event: Event) => {
    event.preventDefault();
    void signIn((headers) => ok(api.POST('/user/storefront/api/login/', { body: { email, password }, headers })));
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
        New here? <a href={`/sign-up${next ? `?next=${encodeURIComponent(next)}` : ''}`}>Sign up</a>
      </p>
    </>
  );
}

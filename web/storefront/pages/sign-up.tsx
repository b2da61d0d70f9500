import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { fieldError, problemBeyondFields } from '../../shared/problem';
import { ErrorMessage, Field } from '../../shared/ui';
import { useShop } from '../context';
import { useSignIn } from '../sign-in';

export function SignUp() {
  const { api } = useShop();
  const { busy, problem, signIn, next } = useSignIn();
  const [form, setForm] = useState({ email: '', password: '', first_name: '', last_name: '' });

  useEffect(() => {
    document.title = 'Sign up';
  }, []);

  const set = (name: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) =>
    setForm((before) => ({ ...before, [name]: e.currentTarget.value }));

  const submit = (event: Event) => {
    event.preventDefault();
    void signIn((headers) => ok(api.POST('/user/storefront/api/signup/', { body: form, headers })));
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
        Have an account? <a href={`/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`}>Sign in</a>
      </p>
    </>
  );
}

import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { fieldError, type Problem } from '../../shared/problem';
import { ErrorMessage, Field } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';

const notAnAdmin: Problem = {
  type: 'about:blank',
  title: 'This account is not an admin',
  status: 403,
  code: 'forbidden',
  detail: 'sign in with an admin account to use the dashboard',
};

/** The dashboard's sign-in: only an admin account gets past it. `notice` says why the admin was signed out. */
export function SignIn(props: { notice?: string | undefined }) {
  const { api, session } = useDashboard();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const write = useWrite();
  const { problem } = write;

  async function submit(event: Event) {
    event.preventDefault();
    const answer = await write.run(async () => {
      const signedIn = await ok(api.POST('/user/storefront/api/login/', { body: { email, password } }));
      if (signedIn.user.role !== 'admin') throw notAnAdmin;
      return signedIn;
    });
    if (answer) session.set({ user: answer.user, access: answer.access, refresh: answer.refresh });
  }

  return (
    <form onSubmit={submit} aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in to the dashboard</h1>
      {props.notice && (
        <p role="status" class="notice">
          {props.notice}
        </p>
      )}
      <ErrorMessage problem={problem} />
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        required
        value={email}
        onInput={(e) => setEmail(e.currentTarget.value)}
        error={fieldError(problem, 'email')}
      />
      <Field
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        error={fieldError(problem, 'password')}
      />
      <button type="submit" disabled={write.busy}>
        Sign in
      </button>
    </form>
  );
}

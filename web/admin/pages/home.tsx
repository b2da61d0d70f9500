export function Home() {
  return <h1>Dashboard</h1>;
}

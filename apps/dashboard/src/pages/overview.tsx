export default function Page() {
  return <h1>overview</h1>;
}

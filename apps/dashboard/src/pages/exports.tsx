export default function Page() {
  return <h1>exports</h1>;
}

export default function Page() {
  return <h1>explorer</h1>;
}

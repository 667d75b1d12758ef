export default function Page() {
  return <h1>cache</h1>;
}

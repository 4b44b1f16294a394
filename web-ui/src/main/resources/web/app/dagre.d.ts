// dagre's WebJar has no type declarations; the parts used are typed loosely on purpose.
declare module 'dagre/dist/dagre.min.js' {
  const dagre: any;
  export default dagre;
}

/** The inputs a command line names (-r, -d and their long forms), for a message about the run as a whole. */
export function inputNames(argv: readonly string[]): string {
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = /^--(reference|distorted)=(.*)$/.exec(a);
    if (eq) names.push(eq[2]!);
    else if (["-r", "-d", "--reference", "--distorted"].includes(a) && i + 1 < argv.length) names.push(argv[++i]!);
  }
  return names.length ? names.join(" and ") : "the input";
}

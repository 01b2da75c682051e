// Which of a child's stderr lines -q keeps. Dawn (the GPU under Node and Bun) prints notices
// from native code straight to file descriptor 2 as "<Severity>: <message>", some followed by
// "    at <source>" and a blank line (e.g. when there is no Vulkan loader at all); under -q
// only its errors, and everything vq itself writes, pass.
const NOTICE = /^(Debug|Info|Warning): /;
const CONTINUATION = /^(\s+at .*)?$/;

/** A line filter with the state of one stream: true = keep the line. */
export function dawnNoticeFilter() {
  let inNotice = false;
  return (line) => {
    inNotice = NOTICE.test(line) || (inNotice && CONTINUATION.test(line));
    return !inNotice;
  };
}

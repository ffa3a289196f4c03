# expect: SandboxError
breakpoint()

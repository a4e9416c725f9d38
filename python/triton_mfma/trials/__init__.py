"""Trial compiles: the variant-compile engine (engine), the speculation policy that schedules the decisions' trials
(policy), and trial verdicts remembered within a process (remembered). Imports the decisions and the layers below."""

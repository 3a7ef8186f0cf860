"""Reading a file back against AICB: the command behind it, and where it departs from
the training it describes."""

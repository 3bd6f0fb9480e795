
BoutputJ
צױֹÙאהקûז
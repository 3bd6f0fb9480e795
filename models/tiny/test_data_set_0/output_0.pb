
BoutputJ
æ€|ê³_Cå